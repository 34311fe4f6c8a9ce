print("foldcamctl: not yet")
