% trainingOptions: solver objects and their properties
options = trainingOptions("sgdm", MaxEpochs=20, MiniBatchSize=64, InitialLearnRate=0.01);
class(options)
options.MaxEpochs
options.MiniBatchSize
options.Momentum
options.InitialLearnRate
adam = trainingOptions("adam");
[adam.GradientDecayFactor adam.SquaredGradientDecayFactor]
adam.Shuffle
adam.Verbose
try
    trainingOptions("adam", MaxEpochs=0);
catch err
    disp(err.identifier)
end
