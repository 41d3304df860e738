% Cell arrays: one summary per element, columns as wide as their widest element.
C = {1, 2, 3; 'text', ones(5, 10, 2), {11; 22; 33}}
C2 = {'one', 'two', 'three'; 1, 2, 3}
C3 = {'row1', [1 2 3], 3 + 4i; 'row2', [2 4; 1 3], {'innercells', 42}}
C4 = cell(2, 3)
C5 = {pi, -1, NaN, 2.0923e+13, [0.5 0.25]}
C6 = {@(x) x + 1, "abc", struct('a', 1), true, [true false], ones(1, 1, 'int8')}
C7 = C2(2)
C8 = C2{1, 3}
C9 = {'a', 1; 'abc', 22}
C10 = {'', zeros(1, 0), ['ab'; 'cd'], {}}
disp(C9)
