% leakyReluLayer reference page: a layer with scale 0.1 named 'leaky1', then the example
% array with two default leaky ReLU layers (scale 0.01 in their description).
layer = leakyReluLayer(0.1,'Name','leaky1')
layers = [
    imageInputLayer([28 28 1])
    convolution2dLayer(3,16)
    batchNormalizationLayer
    leakyReluLayer

    maxPooling2dLayer(2,'Stride',2)
    convolution2dLayer(3,32)
    batchNormalizationLayer
    leakyReluLayer

    fullyConnectedLayer(10)
    softmaxLayer]
