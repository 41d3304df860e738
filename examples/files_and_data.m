% Files and data: write a table of training results to a CSV file, read it
% back, save variables to a MAT-file and load them, and time-stamp the run.
folder = tempname;
mkdir(folder);
resultsFile = fullfile(folder, 'results.csv');

% Training results as a table.
Epoch = (1:4)';
Loss = [0.6931; 0.4120; 0.2875; 0.2311];
Accuracy = [0.52; 0.78; 0.86; 0.91];
results = table(Epoch, Loss, Accuracy)

% Write it to a CSV file and read it back.
writetable(results, resultsFile);
T = readtable(resultsFile);
fprintf('Read %d rows and %d variables from %s\n', height(T), width(T), 'results.csv');
bestEpoch = T.Epoch(T.Loss == min(T.Loss))

% Select the rows with an accuracy above 0.8.
good = T(T.Accuracy > 0.8, :)

% Save variables to a MAT-file and load them into a structure.
weights = magic(3);
labels = {'cat', 'dog', 'bird'};
matFile = fullfile(folder, 'model.mat');
save(matFile, 'weights', 'labels', 'Loss');
S = load(matFile)
isequal(S.weights, weights)

% A text file, line by line.
logFile = fullfile(folder, 'log.txt');
fid = fopen(logFile, 'w');
for k = 1:height(T)
    fprintf(fid, 'epoch %d: loss %.4f\n', T.Epoch(k), T.Loss(k));
end
fclose(fid);
lines = readlines(logFile)

% Durations and dates.
trainingTime = duration(0, 0, 5025.6, 'Format', 'hh:mm:ss')
started = datetime(2026, 11, 24, 9, 15, 0)
finished = started + trainingTime

% JSON for the results.
jsonText = jsonencode(struct('bestEpoch', bestEpoch, 'finalLoss', Loss(end)))

rmdir(folder, 's');
