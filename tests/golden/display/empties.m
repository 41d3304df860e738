% Empty values of every class.
a = []
b = zeros(0, 3)
c = 1:0
d = zeros(0, 1)
e = ones(3, 0, 2)
f = ''
g = {}
h = true(0, 0)
k = zeros(0, 0, 'int8')
l = zeros(0, 1, 'int8')
m = zeros(0, 0, 'single')
n = cell(0, 3)
o = struct([])
p = struct()
q = struct('a', {})
disp([])
disp({})
disp('')
disp(zeros(0, 3))
