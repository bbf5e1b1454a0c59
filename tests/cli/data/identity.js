(input) => ({ input })
