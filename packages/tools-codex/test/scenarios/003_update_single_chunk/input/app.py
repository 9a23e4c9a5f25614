def greet():
    print("Hi")
    return 1
