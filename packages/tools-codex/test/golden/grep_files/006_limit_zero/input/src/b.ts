const other = 1;
