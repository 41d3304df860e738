% swishLayer reference page: the single-layer display, then the example that puts a
% swish layer into a layer array (its description column reads "Swish").
layer = swishLayer('Name','swish1')
layers = [ ...
    imageInputLayer([28 28 1])
    convolution2dLayer(5,20)
    batchNormalizationLayer
    swishLayer
    maxPooling2dLayer(2,'Stride',2)
    fullyConnectedLayer(10)
    softmaxLayer]
