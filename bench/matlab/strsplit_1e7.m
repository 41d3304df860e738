% strsplit_1e7: strsplit at ',' of a 1e7-character char row (1e6 + 1 parts).
if ~exist('n', 'var'), n = 1e7; end   % a multiple of 10
s = repmat('abc,defgh ', 1, n/10);
cpu0 = cputime;
tic;
parts = strsplit(s, ',');
wall = toc;
cpu = cputime - cpu0;
if numel(parts) ~= n/10 + 1 || ~strcmp(parts{2}, 'defgh abc') || ~strcmp(parts{end}, 'defgh ')
    error('bench:wrong', 'strsplit_1e7 computed a wrong result');
end
fprintf('strsplit_1e7 %.6f %.6f\n', cpu, wall);
