% Integer classes: a class header, then each element in the width of the longest plus 3.
a = ones(1, 1, 'int8') * 5
b = ones(1, 2, 'int8') .* [1 2]
c = ones(1, 10, 'uint8') .* (1:10)
d = -ones(1, 1, 'int8') * 128
e = ones(1, 2, 'int8') .* [-1 2]
f = ones(1, 2, 'uint16') .* [256 512]
g = ones(3, 1, 'int32') .* [7; -70; 700]
h = ones(2, 2, 'uint32') .* [1 2; 30 40]
format long
a
format
disp(b)
