mid
