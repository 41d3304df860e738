% disp shows a dlarray without its name; format compact drops the blank lines.
disp(dlarray(5))
disp(dlarray([1.5 -2]))
disp(dlarray([1 2; 3 4],'SC'))
disp(dlarray(single(2)))
disp(dlarray(zeros(0,2)))
format compact
x = dlarray([1 2; 3 4])
y = dlarray(1,'CB')
format loose
x = dlarray(3)
