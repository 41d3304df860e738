% The other numeric formats, and format alone resetting to short and loose.
x = [25 56.31156 255.52675 9876899999];
format shortG
x
format shortE
y = [4/3 1.2345e-6]
format longE
y
format rat
p = pi
y
format hex
r = realmax
format shortEng
A = 5.123456789;
for k = 1:3
   disp(A)
   A = A * 10;
end
format longEng
A = 5.123456789;
for k = 1:3
   disp(A)
   A = A * 10;
end
format long g
p = pi
format compact
format
p = pi
format LONG
p
format('short')
p
