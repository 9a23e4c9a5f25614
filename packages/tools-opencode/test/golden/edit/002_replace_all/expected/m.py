def f():
    return 0

def g():
    return 0
