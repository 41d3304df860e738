%% Train a convolutional classifier using a model function
% A small convolutional neural network, written as a model function over a
% structure of learnable parameters, learns to tell 8-by-8 images of
% horizontal bars from images of vertical bars. The network uses dlconv,
% batchnorm (whose running statistics are kept in a separate state
% structure), relu, maxpool, fullyconnect and softmax; a custom training
% loop minimizes the cross-entropy loss with the SGDM solver (sgdmupdate).

rng(0)

%% Generate Data
% Each image holds one bar, horizontal or vertical, two pixels wide, at a
% random position, with a random brightness, on a noisy background. The
% images are stored as a 4-D array (height, width, channels, observations)
% and the labels as a categorical vector.
numTrain = 256;
numTest = 128;
[XTrain,TTrain] = generateBarImages(numTrain);
[XTest,TTest] = generateBarImages(numTest);

classes = categories(TTrain);
numClasses = numel(classes);

disp(size(XTrain))
disp(classes')
disp(countcats(TTrain)')

%% Define Model Parameters
% Convolution with 8 filters of size 3-by-3, batch normalization, ReLU,
% max pooling and a fully connected layer with one output per class. The
% learnable parameters go in the structure parameters; the running mean
% and variance of the batch normalization go in the structure state.
parameters = struct;
state = struct;

filterSize = [3 3];
numChannels = 1;
numFilters = 8;

sz = [filterSize numChannels numFilters];
numOut = prod(filterSize) * numFilters;
numIn = prod(filterSize) * numFilters;

parameters.conv1.Weights = initializeGlorot(sz,numOut,numIn);
parameters.conv1.Bias = initializeZeros([numFilters 1]);

parameters.batchnorm1.Offset = initializeZeros([numFilters 1]);
parameters.batchnorm1.Scale = initializeOnes([numFilters 1]);
state.batchnorm1.TrainedMean = initializeZeros([numFilters 1]);
state.batchnorm1.TrainedVariance = initializeOnes([numFilters 1]);

% After 2-by-2 max pooling with stride 2, each 8-by-8 feature map is
% 4-by-4.
inputSize = 4*4*numFilters;
sz = [numClasses inputSize];
numOut = numClasses;
numIn = inputSize;
parameters.fc1.Weights = initializeGlorot(sz,numOut,numIn);
parameters.fc1.Bias = initializeZeros([numClasses 1]);

%% Specify Training Options
numEpochs = 5;
miniBatchSize = 32;
learnRate = 0.05;
momentum = 0.9;

%% Train Model
% Initialize the velocity of the SGDM solver.
velocity = [];

numObservations = numTrain;
numIterationsPerEpoch = floor(numObservations./miniBatchSize);
iteration = 0;

for epoch = 1:numEpochs
    % Shuffle the data.
    idx = randperm(numObservations);
    XTrain = XTrain(:,:,:,idx);
    TTrain = TTrain(idx);

    lossEpoch = 0;
    for i = 1:numIterationsPerEpoch
        iteration = iteration + 1;

        % Read a mini-batch of data; convert the images to a dlarray with
        % format "SSCB" and the labels to one-hot encoded targets.
        idxBatch = (i-1)*miniBatchSize+1:i*miniBatchSize;
        X = dlarray(XTrain(:,:,:,idxBatch),"SSCB");
        T = onehotencode(TTrain(idxBatch)',1);

        % Evaluate the model loss, gradients and state using dlfeval.
        [loss,gradients,state] = dlfeval(@modelLoss,parameters,X,T,state);

        % Update the network parameters using the SGDM optimizer.
        [parameters,velocity] = sgdmupdate(parameters,gradients,velocity,learnRate,momentum);

        lossEpoch = lossEpoch + extractdata(loss);
    end
    fprintf("Epoch %d, iteration %2d, mean loss = %.4f\n", ...
        epoch,iteration,lossEpoch/numIterationsPerEpoch);
end

%% Test Model
% Make predictions with the trained parameters and the trained batch
% normalization statistics (doTraining = false), and compare the predicted
% classes with the true labels.
doTraining = false;
X = dlarray(XTest,"SSCB");
Y = model(parameters,X,doTraining,state);
YTest = onehotdecode(Y,classes,1);
accuracy = mean(YTest(:) == TTest(:));
fprintf("Test accuracy: %.2f%%\n",100*accuracy);

%% Model Loss Function
% Runs the model in training mode (batch statistics, updated running
% statistics) and returns the cross-entropy loss, the gradients of the loss
% with respect to the learnable parameters and the updated state.
function [loss,gradients,state] = modelLoss(parameters,X,T,state)

doTraining = true;
[Y,state] = model(parameters,X,doTraining,state);

loss = crossentropy(Y,T);
gradients = dlgradient(loss,parameters);

end

%% Model Function
function [Y,state] = model(parameters,X,doTraining,state)

% Convolution
weights = parameters.conv1.Weights;
bias = parameters.conv1.Bias;
Y = dlconv(X,weights,bias,Padding="same");

% Batch normalization: in training, normalize with the statistics of the
% mini-batch and update the running statistics; in prediction, use the
% running statistics.
offset = parameters.batchnorm1.Offset;
scale = parameters.batchnorm1.Scale;
trainedMean = state.batchnorm1.TrainedMean;
trainedVariance = state.batchnorm1.TrainedVariance;

if doTraining
    [Y,trainedMean,trainedVariance] = batchnorm(Y,offset,scale,trainedMean,trainedVariance);

    % Update state
    state.batchnorm1.TrainedMean = trainedMean;
    state.batchnorm1.TrainedVariance = trainedVariance;
else
    Y = batchnorm(Y,offset,scale,trainedMean,trainedVariance);
end

% ReLU
Y = relu(Y);

% Max pooling
Y = maxpool(Y,2,Stride=2);

% Fully connect
weights = parameters.fc1.Weights;
bias = parameters.fc1.Bias;
Y = fullyconnect(Y,weights,bias);

% Softmax
Y = softmax(Y);

end

%% Data Generation Function
% Returns numImages 8-by-8 grayscale images, each with one horizontal or
% vertical bar, and their labels.
function [X,T] = generateBarImages(numImages)

imageSize = 8;
X = 0.3*rand(imageSize,imageSize,1,numImages);
isVertical = rand(1,numImages) > 0.5;
for n = 1:numImages
    position = randi(imageSize-1);
    brightness = 0.6 + 0.4*rand;
    if isVertical(n)
        X(:,position:position+1,1,n) = brightness;
    else
        X(position:position+1,:,1,n) = brightness;
    end
end

labels = strings(numImages,1);
labels(isVertical) = "vertical";
labels(~isVertical) = "horizontal";
T = categorical(labels);

end

%% Glorot Weights Initialization Function
% Samples the weights from a uniform distribution with bounds
% +/- sqrt(6/(numIn + numOut)). The parameters are double precision here
% (single is the usual choice on a GPU) so that the printed results do not
% depend on rounding differences between machines.
function weights = initializeGlorot(sz,numOut,numIn,className)

arguments
    sz
    numOut
    numIn
    className = 'double'
end

Z = 2*rand(sz,className) - 1;
bound = sqrt(6 / (numIn + numOut));

weights = bound * Z;
weights = dlarray(weights);

end

%% Zeros Initialization Function
function parameters = initializeZeros(sz,className)

arguments
    sz
    className = 'double'
end

parameters = zeros(sz,className);
parameters = dlarray(parameters);

end

%% Ones Initialization Function
function parameters = initializeOnes(sz,className)

arguments
    sz
    className = 'double'
end

parameters = ones(sz,className);
parameters = dlarray(parameters);

end
