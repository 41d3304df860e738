% format compact drops every blank line of the framing and of class headers.
format compact
x = 5
k = ones(1, 1, 'int8') * 5
[true false]
s.a = 1;
s
c = {1, 'abc'}
fprintf('abc'); y = 1
format loose
x
