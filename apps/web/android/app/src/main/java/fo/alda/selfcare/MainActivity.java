package fo.alda.selfcare;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
