// The page script in pt-BR: its catalogue alone is bundled.
import { ptBR } from '../../../../projections/locale/messages/ptBR.ts';
import { startPage } from '../main.ts';

startPage('pt-BR', ptBR);
