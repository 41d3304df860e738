%% Train a regression network with trainnet
% A small feature network learns a smooth function of two variables from
% noisy samples. The network is a layer array; trainnet trains it with the
% Adam solver and the mean squared error loss, using the options made by
% trainingOptions (mini-batches, epochs, a piecewise learning-rate schedule,
% shuffling every epoch and validation data). The training history returned
% by trainnet gives the loss at each iteration, and minibatchpredict makes
% predictions with the trained network.

rng(0)

%% Generate Data
% The response is y = sin(2*x1) + 0.5*x2.^2 plus a little uniform noise,
% for points drawn uniformly in the square [-1.5,1.5]^2. The predictors are
% stored with one observation per row, as trainnet expects for feature
% data; the responses form a column vector.
numObservations = 600;
X = 3*rand(numObservations,2) - 1.5;
T = responseFunction(X) + 0.05*(2*rand(numObservations,1) - 1);

% Partition the data: 400 observations for training, 100 for validation
% and 100 for testing.
idx = randperm(numObservations);
idxTrain = idx(1:400);
idxValidation = idx(401:500);
idxTest = idx(501:end);

XTrain = X(idxTrain,:);
TTrain = T(idxTrain);
XValidation = X(idxValidation,:);
TValidation = T(idxValidation);
XTest = X(idxTest,:);
TTest = T(idxTest);

%% Define Network Architecture
% A feature input layer for the two predictors, two fully connected layers
% of 32 neurons with tanh activations, and a fully connected output layer
% with one neuron for the response.
numFeatures = size(XTrain,2);
numResponses = 1;

layers = [
    featureInputLayer(numFeatures)
    fullyConnectedLayer(32)
    tanhLayer
    fullyConnectedLayer(32)
    tanhLayer
    fullyConnectedLayer(numResponses)]

%% Specify Training Options
% Train for 150 epochs with mini-batches of 40 observations, starting with
% a learning rate of 0.01 and multiplying it by 0.2 every 50 epochs. Shuffle the data
% every epoch and validate the network every 50 iterations. Do not print
% the training progress: the history is printed below.
options = trainingOptions("adam", ...
    MaxEpochs=150, ...
    MiniBatchSize=40, ...
    InitialLearnRate=0.01, ...
    LearnRateSchedule="piecewise", ...
    LearnRateDropPeriod=50, ...
    LearnRateDropFactor=0.2, ...
    Shuffle="every-epoch", ...
    ValidationData={XValidation,TValidation}, ...
    ValidationFrequency=50, ...
    Verbose=false, ...
    Plots="none");

%% Train Neural Network
% Train the network with the "mse" loss (half mean squared error). The
% second output holds the training history: one row per iteration.
[net,info] = trainnet(XTrain,TTrain,layers,"mse",options);

history = info.TrainingHistory;
numIterations = height(history)

% The mean training loss of each epoch.
epochLoss = groupsummary(history,"Epoch","mean","Loss");
for epoch = [1 25:25:150]
    fprintf("Epoch %3d, learning rate = %.5f, mean loss = %.5f\n", epoch, ...
        history.LearnRate(find(history.Epoch == epoch,1)), ...
        epochLoss.mean_Loss(epoch));
end

% The validation loss at the last validation.
validationHistory = info.ValidationHistory;
fprintf("Final validation loss = %.5f\n",validationHistory.Loss(end));

%% Test Neural Network
% Predict the responses of the test data and compute the root mean squared
% error.
YTest = minibatchpredict(net,XTest);
rmse = sqrt(mean((YTest - TTest).^2));
fprintf("Test RMSE = %.4f\n",rmse);

% Compare a few predictions with the true (noise-free) responses.
XNew = [-1 0.5; 0 0; 0.5 -1; 1 1];
YNew = minibatchpredict(net,XNew);
fprintf("    x1     x2   predicted     true\n");
fprintf("%6.2f %6.2f   %9.4f  %7.4f\n",[XNew'; YNew'; responseFunction(XNew)']);

%% Response Function
function Y = responseFunction(X)

Y = sin(2*X(:,1)) + 0.5*X(:,2).^2;

end
