% The Properties of a table.
T = table([1; 2], {'a'; 'b'}, 'VariableNames', {'Num', 'Text'});
T.Properties.Description = 'Small table';
T.Properties.VariableUnits = {'m', ''};
T.Properties
T.Properties.VariableNames{2} = 'Words';
T.Properties.VariableNames
