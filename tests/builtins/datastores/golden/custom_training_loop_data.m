% the data pipeline of MathWorks' custom training loop examples: images and labels combined,
% a MiniBatchFcn that one-hot encodes the labels, a progress monitor in the epoch loop
XTrain = rand(4,4,1,10);
TTrain = categorical(mod((1:10)',3));
dsX = arrayDatastore(XTrain, IterationDimension=4);
dsT = arrayDatastore(TTrain);
dsTrain = combine(dsX, dsT);
mbq = minibatchqueue(dsTrain, MiniBatchSize=4, MiniBatchFcn=@preprocessMiniBatch, MiniBatchFormat=["SSCB" ""]);
[X, T] = next(mbq);
size(X), dims(X), class(T), size(T)
numEpochs = 2; iteration = 0; numIterations = 6;
monitor = trainingProgressMonitor(Metrics="Loss", Info="Epoch", XLabel="Iteration");
epoch = 0;
while epoch < numEpochs && ~monitor.Stop
    epoch = epoch + 1;
    shuffle(mbq);
    while hasdata(mbq) && ~monitor.Stop
        iteration = iteration + 1;
        [X, T] = next(mbq);
        loss = dlarray(single(1/iteration));
        recordMetrics(monitor, iteration, Loss=loss);
        updateInfo(monitor, Epoch=epoch + " of " + numEpochs);
        monitor.Progress = 100 * iteration/numIterations;
    end
end
monitor.InfoData.Epoch
size(monitor.MetricData.Loss)
ds = arrayDatastore([rand(10,1) rand(10,1)]);
mbq = minibatchqueue(ds, MiniBatchSize=4, MiniBatchFormat="BC", OutputEnvironment="cpu");
X = next(mbq); size(X), dims(X)
function [X,T] = preprocessMiniBatch(dataX,dataT)
X = cat(4,dataX{:});
T = cat(2,dataT{:});
T = onehotencode(T,1);
end
