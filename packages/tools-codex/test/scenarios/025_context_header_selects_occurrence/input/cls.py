class A:
    def f(self):
        return 1
class B:
    def f(self):
        return 1
