class C:
    def a(self):
        pass
    def b(self):
        pass
    def anchor(self):
        x = 1
    def d(self):
        pass
    def e(self):
        pass
