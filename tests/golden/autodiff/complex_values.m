% Complex dlarrays display like complex double arrays.
z = dlarray(3 + 4i)
Z = dlarray([1+2i 3; 1-2i 0.5])
g = dlarray(2 - 3i)
c = dlarray(single(1 - 1i))
