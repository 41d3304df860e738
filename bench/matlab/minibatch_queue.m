% minibatch_queue: the data pipeline of a custom training loop, without the model: an
% arrayDatastore of n observations read by a minibatchqueue with a MiniBatchFcn, shuffled
% each epoch, batches of 16, and a trainingProgressMonitor told the loss and the epoch.
% (GNU Octave has no datastores.)
if ~exist('n', 'var'), n = 4096; end
X = single(reshape(mod(0:9*n-1, 97), 9, n));
ds = arrayDatastore(X, 'IterationDimension', 2);
mbq = minibatchqueue(ds, 'MiniBatchSize', 16, 'MiniBatchFcn', @(x) cat(2, x{:}), ...
    'MiniBatchFormat', 'CB');
monitor = trainingProgressMonitor('Metrics', 'Loss', 'Info', 'Epoch', 'XLabel', 'Iteration');
iteration = 0;
total = 0;
cpu0 = cputime;
tic;
for epoch = 1:3
    shuffle(mbq);
    while hasdata(mbq)
        batch = next(mbq);
        iteration = iteration + 1;
        total = total + sum(extractdata(batch(1, :)));
        recordMetrics(monitor, iteration, 'Loss', 1 / iteration);
        updateInfo(monitor, 'Epoch', epoch);
        monitor.Progress = 100 * iteration / (3 * ceil(n / 16));
    end
end
wall = toc;
cpu = cputime - cpu0;
if iteration ~= 3 * ceil(n / 16) || total ~= 3 * sum(X(1, :))
    error('bench:wrong', 'minibatch_queue read %g batches, total %g', iteration, total);
end
fprintf('minibatch_queue %.6f %.6f\n', cpu, wall);
