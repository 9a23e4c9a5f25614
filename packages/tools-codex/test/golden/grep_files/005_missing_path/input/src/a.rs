fn needle() {}
