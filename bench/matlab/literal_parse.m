% literal_parse: eval of a 1 MB numeric matrix literal ('A = [0.123 4.5e-03 ...; ...];'),
% built before timing; only the eval is timed.
if ~exist('n', 'var'), n = 1000; end   % rows of 100 numbers
k = 1:100*n;
values = (mod(k*0.6180339887, 1) - 0.5) .* 10.^(mod(k, 9) - 4);
code = ['A = [' sprintf([repmat('%.6g ', 1, 100) ';\n'], values) '];'];
cpu0 = cputime;
tic;
eval(code);
wall = toc;
cpu = cputime - cpu0;
expected = reshape(values, 100, n)';
if ~isequal(size(A), [n 100]) || max(abs(A(:) - expected(:)) ./ abs(expected(:))) > 1e-5
    error('bench:wrong', 'literal_parse read a wrong matrix');
end
fprintf('literal_parse %.6f %.6f\n', cpu, wall);
