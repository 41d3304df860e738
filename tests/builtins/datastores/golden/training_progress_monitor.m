% a training progress monitor records metrics and information (no window: nothing printed here)
monitor = trainingProgressMonitor(Metrics=["TrainingLoss", "ValidationLoss"], Info="Epoch", XLabel="Iteration");
groupSubPlot(monitor, "Loss", ["TrainingLoss", "ValidationLoss"]);
for iteration = 1:3
    recordMetrics(monitor, iteration, TrainingLoss=1 / iteration, ValidationLoss=2 / iteration);
    updateInfo(monitor, Epoch=ceil(iteration / 2));
    monitor.Progress = 100 * iteration / 3;
end
monitor.Metrics
monitor.Info
monitor.Progress
monitor.Stop
data = monitor.MetricData;
data.TrainingLoss
info = monitor.InfoData;
info.Epoch'
s.TrainingLoss = 0.25;
recordMetrics(monitor, 4, s);
size(monitor.MetricData.TrainingLoss)
try
    recordMetrics(monitor, 5, Accuracy=1);
catch err
    disp(err.identifier)
end
try
    monitor.Stop = true;
catch err
    disp(err.identifier)
end
