import { tenancyMatrix } from './tenancy-matrix.ts';

tenancyMatrix('postgres');
