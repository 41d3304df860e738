% a categorical row wider than the window splits into column blocks; in a struct
% and in a table an element reads as its category name
big = categorical(repmat({'alpha','beta','gamma'}, 1, 8))
s.label = categorical({'cat'})
T = table(categorical({'m';'f';''}), [31;28;40], 'VariableNames', {'Sex','Age'})
