% A variable with several columns shows its columns side by side, in one width
% (the last table is the one on the numel reference page).
BloodPressure = [124 93; 109 77; 125 83];
Name = ["Smith"; "Jones"; "Li"];
T = table(Name, BloodPressure)
M = table(rand(2, 0), 'VariableNames', {'Nothing'});
size(M)
format long
p = pi;
L = table(p, exp(1))
format short
BloodPressure = [124 93; 109 77; 125 83; 117 75; 122 80];
LastName = {'Smith';'Johnson';'Williams';'Jones';'Brown'};
Age = [38;43;38;40;49];
Height = [71;69;64;67;64];
Weight = [176;163;131;133;119];
A = table(Age, Height, Weight, BloodPressure, 'RowNames', LastName)
n = numel(A)
