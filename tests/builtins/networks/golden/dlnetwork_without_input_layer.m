% addInputLayer reference page: a network built without an input layer and not
% initialized; its input is the first convolution's unconnected input.  Then the image
% input layer is added and the network initialized.
layers = [
    convolution2dLayer(5,20)
    reluLayer
    maxPooling2dLayer(2,Stride=2)
    fullyConnectedLayer(10)
    softmaxLayer];

net = dlnetwork(layers,Initialize=false)
layer = imageInputLayer([28 28 1],Normalization="none");
net = addInputLayer(net,layer,Initialize=true);
net.Initialized
net.InputNames
