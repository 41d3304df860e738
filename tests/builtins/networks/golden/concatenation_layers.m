% concatenationLayer and depthConcatenationLayer reference pages: each layer's display
% (its Dim, NumInputs and the input names in1, in2), then the network of the depth
% concatenation example, two ReLU layers connected to its two inputs.
concat = concatenationLayer(4,2,'Name','concat')
concat = depthConcatenationLayer(2,'Name','concat_1')

relu_1 = reluLayer('Name','relu_1');
relu_2 = reluLayer('Name','relu_2');

net = dlnetwork;
net = addLayers(net,relu_1);
net = addLayers(net,relu_2);
net = addLayers(net,concat);

net = connectLayers(net,'relu_1','concat_1/in1');
net = connectLayers(net,'relu_2','concat_1/in2');
net.Connections
net.InputNames
net.OutputNames
