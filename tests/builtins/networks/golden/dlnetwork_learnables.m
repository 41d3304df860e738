% dlnetwork initialize reference page: the learnables of an uninitialized network are
% empty doubles; after initialize they are dlarrays of the sizes the layers infer from
% the 28-by-28 grayscale image input.
layers = [
    imageInputLayer([28 28 1],Normalization="none")
    convolution2dLayer(5,20)
    batchNormalizationLayer
    reluLayer
    fullyConnectedLayer(10)
    softmaxLayer];

net = dlnetwork(layers,Initialize=false);
net.Learnables
net = initialize(net);
net.Learnables
net.State
