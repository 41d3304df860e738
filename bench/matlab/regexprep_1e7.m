% regexprep_1e7: regexprep with a group and a $1 replacement on a 1e7-character char row.
if ~exist('n', 'var'), n = 1e7; end   % a multiple of 10
s = repmat('abc,defgh ', 1, n/10);
cpu0 = cputime;
tic;
t = regexprep(s, 'd(e)f', '$1$1');
wall = toc;
cpu = cputime - cpu0;
if numel(t) ~= n - n/10 || ~strcmp(t(1:9), 'abc,eegh ')
    error('bench:wrong', 'regexprep_1e7 computed a wrong result');
end
fprintf('regexprep_1e7 %.6f %.6f\n', cpu, wall);
