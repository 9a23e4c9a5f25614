# Helper function
# for computation
def compute(x):
    return x * 2
