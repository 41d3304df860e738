% tanhLayer reference page: the named layer's display and the example layer array with
% two tanh layers ("Hyperbolic tangent" in the description column).
layer = tanhLayer('Name','tanh1')
layers = [
    imageInputLayer([28 28 1])
    convolution2dLayer(3,16)
    batchNormalizationLayer
    tanhLayer
    maxPooling2dLayer(2,'Stride',2)
    convolution2dLayer(3,32)
    batchNormalizationLayer
    tanhLayer
    fullyConnectedLayer(10)
    softmaxLayer]
