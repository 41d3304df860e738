% eluLayer and dropoutLayer reference pages: ELU shows Alpha beside its name and the empty
% parameter groups; dropout shows its Probability as a hyperparameter, and "50% dropout" in
% the dropout page's example layer array.
layer = eluLayer(Name="elu1")
layer = dropoutLayer('Name','drop1')
layers = [ ...
    imageInputLayer([28 28 1])
    convolution2dLayer(5,20)
    reluLayer
    dropoutLayer
    fullyConnectedLayer(10)
    softmaxLayer]
