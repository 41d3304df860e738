% Empty dlarrays: one line naming the size, 'empty' and the class.
e = dlarray([])
e = dlarray(zeros(0,3))
e = dlarray(zeros(1,0))
e = dlarray(single(zeros(2,0)))
e = dlarray(zeros(0,3),'CB')
e = dlarray([1 2 3]) > 5;
f = e(e)
