import asyncio  # HELLO
quote = "hello"
café = "☃"
