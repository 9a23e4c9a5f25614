def greet():
    say(“it’s fine”)
    return None
