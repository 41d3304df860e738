% sigmoidLayer reference page, example: a named sigmoid layer lists both parameter
% groups as empty and ends with the "Show all properties" line.
layer = sigmoidLayer('Name', 'sig1')
