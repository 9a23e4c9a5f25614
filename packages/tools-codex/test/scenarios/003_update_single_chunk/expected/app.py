def greet():
    print("Hello, world!")
    return 1
