% Names a network gives unnamed layers: the layer kind's base name when one layer has
% it, base_1, base_2, ... when several do, as the Layers of MATLAB networks built from
% unnamed convolution, batch normalization and leaky ReLU layers show in public code
% listings ('conv_1', 'batchnorm_1', 'leakyrelu_1', ...).
layers = [
    imageInputLayer([28 28 1],Normalization="none")
    convolution2dLayer(3,8,Padding="same")
    batchNormalizationLayer
    leakyReluLayer
    convolution2dLayer(3,8,Padding="same")
    batchNormalizationLayer
    leakyReluLayer
    fullyConnectedLayer(10)
    softmaxLayer];
net = dlnetwork(layers);
net.Layers
net.OutputNames
