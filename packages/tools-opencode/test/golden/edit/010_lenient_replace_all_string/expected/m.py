def f():
    return 9

def g():
    return 9
