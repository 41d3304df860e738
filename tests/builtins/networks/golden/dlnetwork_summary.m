% dlnetwork summary reference page: whether the network is initialized, its number of
% learnables in short form (here 520 + 40 + 115210 = 115770, shown as 116k) and its
% inputs, each with the description of its input layer.
layers = [
    imageInputLayer([28 28 1],Normalization="none")
    convolution2dLayer(5,20)
    batchNormalizationLayer
    reluLayer
    fullyConnectedLayer(10)
    softmaxLayer];
net = dlnetwork(layers);
summary(net)
