% Tables: numbers in the short g form, text as {'abc'} or "abc", logical as true/false.
LastName = {'Sanchez';'Johnson';'Li'};
Age = [38;43;38];
Smoker = logical([1;0;1]);
Height = [71.5;69;64.25];
T = table(LastName, Age, Smoker, Height)
S = table(["a";"bcd"], [-1.5; 1e5], 'VariableNames', {'Label', 'Value'})
V = table(int8([1; -20]), [NaN; Inf])
C = table({1; 'x'}, ['ab'; 'cd'])
disp(S)
