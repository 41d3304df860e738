% N-D arrays show one page at a time, each framed like a variable named A(:,:,k).
C5 = cat(3, [1 2 3; 11 12 13], [2 4 6; 22 24 26])
A = ones(2, 1, 2, 'int8')
B = zeros(1, 2, 1, 2);
B(:, :, 1, 2) = [1.5 2]
L = cat(3, true, false)
S = cat(3, 'ab', 'cd')
C = cat(3, {1}, {'a'})
disp(cat(3, [1 2], [3 4]))
format compact
C5
format loose
