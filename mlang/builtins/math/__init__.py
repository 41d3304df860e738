"""Math: element-wise functions, linear algebra, polynomials, reductions, sorting, sets,
random numbers and constants."""
