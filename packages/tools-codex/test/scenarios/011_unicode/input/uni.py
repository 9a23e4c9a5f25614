import asyncio  # local import – avoids top‑level dep
quote = “hello”
