% softmaxLayer reference page: the named layer's display and the example array ending in
% a softmax layer.
layer = softmaxLayer(Name="sm1")
layers = [ ...
    imageInputLayer([28 28 1])
    convolution2dLayer(5,20)
    reluLayer
    maxPooling2dLayer(2,Stride=2)
    fullyConnectedLayer(10)
    softmaxLayer]
