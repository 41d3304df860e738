% Empty tables show only their size.
E = table()
Z = array2table(zeros(0, 3))
T = table([1; 2; 3]);
T(:, 1) = []
format compact
T = table([1; 2], {'a'; 'b'})
format loose
