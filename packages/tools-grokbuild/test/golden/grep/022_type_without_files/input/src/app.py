import os
def alpha() {
  return 1;
}
Alpha = alpha()
print(Alpha)
