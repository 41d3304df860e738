% additionLayer reference page: an empty network to which an addition layer named 'add'
% and two ReLU layers are added, each ReLU connected to one of the inputs of 'add'.
net = dlnetwork;
layer = additionLayer(2,'Name','add');
net = addLayers(net,layer);

layer = reluLayer('Name','relu1');
net = addLayers(net,layer);
net = connectLayers(net,'relu1','add/in1');

layer = reluLayer('Name','relu2');
net = addLayers(net,layer);
net = connectLayers(net,'relu2','add/in2')
net.Connections
