% Errors documented for layer objects and networks: a read-only property, an unknown
% name-value argument, a reference to a layer that is not in the network.
layer = fullyConnectedLayer(10);
try
    layer.OutputSize = 5;
catch err
    disp(err.identifier)
    disp(err.message)
end
try
    layer = fullyConnectedLayer(10,'Foo',1);
catch err
    disp(err.identifier)
    disp(err.message)
end
layer.Name = "fc1";
disp(layer.Name)
disp(class(layer.Name))
