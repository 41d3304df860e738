% Tables with row names: a first column of left-aligned names, without a heading.
weights = [185; 133; 210];
heights = [74; 65.4; 72.2];
patients = table(weights, heights, 'RowNames', {'Harry', 'Sally', 'Jose'})
patients(1:2, 1)
patients({'Harry', 'Jose'}, :)
