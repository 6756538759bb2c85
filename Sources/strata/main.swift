import Strata

print("strata")
